import { Select } from "./ui";

/** A list filter: an accessible select with an "all" choice (the empty value) and one choice per value. */
export function FilterSelect({
  label,
  allLabel,
  value,
  values,
  onChange,
  display = (v) => v,
  className,
}: {
  label: string;
  allLabel: string;
  value: string;
  values: readonly string[];
  onChange: (value: string) => void;
  display?: (value: string) => string;
  className?: string;
}) {
  return (
    <Select aria-label={label} className={className} value={value} onChange={(e) => onChange(e.target.value)}>
      <option value="">{allLabel}</option>
      {values.map((v) => (
        <option key={v} value={v}>
          {display(v)}
        </option>
      ))}
    </Select>
  );
}
