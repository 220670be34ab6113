import { createElement, isValidElement, type ReactElement, type ReactNode } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it, vi } from "vitest";
import { buildPayload } from "../lib/forms";
import type { SecretRow } from "../lib/secretRows";
import { SAVED_PLACEHOLDER, SecretHeaderRows } from "./SecretHeaderRows";

type Props = Parameters<typeof SecretHeaderRows>[0];

/** A saved row as the server returns it: the value is a mask. */
const SAVED: SecretRow = { name: "row1", key: "X-Api-Key", value: "**********", parent: "tool", idx: 1 };

function props(rows: SecretRow[], onChange: Props["onChange"] = () => undefined): Props {
  return { title: "HTTP headers", rows, onChange, readOnly: false, keyField: "key", valueField: "value" };
}

/** Every element the component returns (it has no hooks, so it renders by a plain call). */
function elements(node: ReactNode): ReactElement[] {
  if (Array.isArray(node)) return node.flatMap(elements);
  if (!isValidElement(node)) return [];
  const children = (node.props as { children?: ReactNode }).children;
  return [node, ...elements(children)];
}

function valueInput(p: Props, row = 1) {
  const input = elements(SecretHeaderRows(p)).find((e) => (e.props as Record<string, unknown>)["aria-label"] === `Header value ${row}`);
  if (!input) throw new Error("no value input");
  return input.props as { value: string; placeholder: string; onChange: (e: { target: { value: string } }) => void };
}

/** The user types `text` into row `row`'s value; the rows the component hands back. */
function type(p: Props, text: string, row = 1): SecretRow[] {
  const onChange = vi.fn();
  valueInput({ ...p, onChange }, row).onChange({ target: { value: text } });
  expect(onChange).toHaveBeenCalledTimes(1);
  return onChange.mock.calls[0]![0] as SecretRow[];
}

describe("SecretHeaderRows", () => {
  it("shows a saved value as an empty input saying it is saved, never the mask", () => {
    const html = renderToStaticMarkup(createElement(SecretHeaderRows, props([SAVED, { key: "X-New", value: "" }])));
    expect(html).toContain(`placeholder="${SAVED_PLACEHOLDER}"`);
    expect(html).not.toContain("*****");
    expect(valueInput(props([SAVED]))).toMatchObject({ value: "", placeholder: SAVED_PLACEHOLDER });
    expect(valueInput(props([SAVED, { key: "X-New", value: "" }]), 2).placeholder).toBe("Value");
  });

  it("an untouched or emptied input keeps the saved value; typing replaces it", () => {
    const save = (rows: SecretRow[]) => buildPayload({ http_headers: rows }, [], ["http_headers"]).http_headers;
    expect(save([SAVED])).toEqual([{ name: "row1", key: "X-Api-Key", value: "**********" }]);

    const typed = type(props([SAVED]), "new-secret");
    expect(save(typed)).toEqual([{ name: "row1", key: "X-Api-Key", value: "new-secret" }]);
    expect(valueInput(props(typed))).toMatchObject({ value: "new-secret", placeholder: SAVED_PLACEHOLDER });

    const emptied = type(props(typed), "");
    expect(save(emptied)).toEqual([{ name: "row1", key: "X-Api-Key", value: "*****" }]);
    expect(valueInput(props(emptied))).toMatchObject({ value: "", placeholder: SAVED_PLACEHOLDER });
  });

  it("a new row sends what was typed, and nothing stands for a saved value", () => {
    const typed = type(props([{ key: "X-New", value: "" }]), "abc");
    expect(typed).toEqual([{ key: "X-New", value: "abc", __saved: false }]);
    expect(type(props(typed), "")[0]!.value).toBe("");
  });

  it("read-only rows cannot be added or removed", () => {
    const html = renderToStaticMarkup(createElement(SecretHeaderRows, { ...props([SAVED]), readOnly: true }));
    expect(html).not.toContain("Add header");
    expect(html).not.toContain("Remove");
  });
});
