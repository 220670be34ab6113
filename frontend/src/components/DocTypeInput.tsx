import { useQuery } from "@tanstack/react-query";
import { useId, type InputHTMLAttributes } from "react";
import { getList } from "../lib/api";
import { Input } from "./ui";

/**
 * A record type (DocType) typed or picked from the list the server lets the user read: the browser
 * filters the suggestions as one types. Without that list (no right to read DocTypes) it is a plain input.
 */
export function DocTypeInput({
  value,
  onChange,
  ...props
}: Omit<InputHTMLAttributes<HTMLInputElement>, "value" | "onChange" | "list"> & { value: string; onChange: (value: string) => void; invalid?: boolean }) {
  const listId = useId();
  const { data = [] } = useQuery({
    queryKey: ["options", "DocType", "records"],
    queryFn: () => getList<{ name: string }>("DocType", { fields: ["name"], filters: { istable: 0 }, order_by: "name asc", limit: 5000 }),
    retry: false,
    staleTime: 5 * 60 * 1000,
  });
  return (
    <>
      <Input {...props} list={listId} autoComplete="off" placeholder={props.placeholder ?? "Type to search record types…"} value={value} onChange={(e) => onChange(e.target.value)} />
      <datalist id={listId}>
        {data.map((d) => (
          <option key={d.name} value={d.name} />
        ))}
      </datalist>
    </>
  );
}
