import { describe, expect, it } from "vitest";
import { argumentText, argumentValue, bareExpression, localTemplateProblem, placeholders } from "./expressions";

describe("templates and expressions", () => {
  it("finds placeholders and the bare expression of a one-placeholder setting", () => {
    expect(placeholders("Order {{ payload.order }} of {{payload.user}}")).toEqual(["payload.order", "payload.user"]);
    expect(bareExpression("{{ payload.count }}")).toBe("payload.count");
    expect(bareExpression("payload.count > 3")).toBe("payload.count > 3");
    expect(bareExpression("{{ a }} and {{ b }}")).toBe("{{ a }} and {{ b }}");
  });

  it("sees unbalanced and empty placeholders", () => {
    expect(localTemplateProblem("Hello {{ payload.name")).toBe("A {{ placeholder }} is not closed.");
    expect(localTemplateProblem("Hello {{ }}")).toBe("A {{ }} placeholder is empty.");
    expect(localTemplateProblem("Hello {{ payload.name }}")).toBeNull();
  });

  it("types tool arguments as the tool wants them, placeholders left to the server", () => {
    expect(argumentValue("42", "integer")).toBe(42);
    expect(argumentValue("4.5", "number")).toBe(4.5);
    expect(argumentValue("many", "integer")).toBe("many");
    expect(argumentValue("true", "boolean")).toBe(true);
    expect(argumentValue('["a"]', "array")).toEqual(["a"]);
    expect(argumentValue('{"a": 1}', "array")).toBe('{"a": 1}');
    expect(argumentValue("{{ payload.count }}", "integer")).toBe("{{ payload.count }}");
    expect(argumentValue(" Paris ", "string")).toBe(" Paris ");
    expect(argumentText({ a: 1 })).toBe('{"a":1}');
    expect(argumentText(undefined)).toBe("");
  });
});
