import * as SwitchPrimitive from "@radix-ui/react-switch";
import type { ButtonHTMLAttributes, InputHTMLAttributes, ReactNode, SelectHTMLAttributes, TextareaHTMLAttributes } from "react";
import { forwardRef, useId } from "react";

const cx = (...parts: Array<string | false | null | undefined>): string => parts.filter(Boolean).join(" ");

type Variant = "primary" | "secondary" | "danger" | "ghost";

const VARIANTS: Record<Variant, string> = {
  primary: "bg-indigo-600 text-white hover:bg-indigo-500 disabled:bg-indigo-400",
  secondary:
    "border border-slate-300 bg-white text-slate-800 hover:bg-slate-100 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100 dark:hover:bg-slate-800",
  danger: "bg-red-600 text-white hover:bg-red-500 disabled:bg-red-400",
  ghost: "text-slate-600 hover:bg-slate-200 dark:text-slate-300 dark:hover:bg-slate-800",
};

export function Button({
  variant = "primary",
  className,
  type = "button",
  ...props
}: ButtonHTMLAttributes<HTMLButtonElement> & { variant?: Variant }) {
  return (
    <button
      type={type}
      className={cx(
        "inline-flex items-center justify-center gap-1 whitespace-nowrap rounded-md px-3 py-1.5 text-sm font-medium transition disabled:cursor-not-allowed disabled:opacity-70",
        VARIANTS[variant],
        className,
      )}
      {...props}
    />
  );
}

const inputClass =
  "w-full rounded-md border border-slate-300 bg-white px-2.5 py-1.5 text-sm shadow-sm focus:border-indigo-500 dark:border-slate-700 dark:bg-slate-900";

export function Input({ className, invalid, ...props }: InputHTMLAttributes<HTMLInputElement> & { invalid?: boolean }) {
  return <input className={cx(inputClass, invalid && "border-red-500 ring-1 ring-red-500", className)} aria-invalid={invalid || undefined} {...props} />;
}

export const Textarea = forwardRef<HTMLTextAreaElement, TextareaHTMLAttributes<HTMLTextAreaElement> & { invalid?: boolean }>(function Textarea(
  { className, invalid, ...props },
  ref,
) {
  return <textarea ref={ref} className={cx(inputClass, invalid && "border-red-500 ring-1 ring-red-500", className)} aria-invalid={invalid || undefined} {...props} />;
});

export function Select({ className, invalid, ...props }: SelectHTMLAttributes<HTMLSelectElement> & { invalid?: boolean }) {
  return <select className={cx(inputClass, invalid && "border-red-500 ring-1 ring-red-500", className)} aria-invalid={invalid || undefined} {...props} />;
}

export function Field({
  label,
  help,
  error,
  children,
  htmlFor,
}: {
  label: string;
  help?: string;
  error?: boolean;
  children: ReactNode;
  htmlFor?: string;
}) {
  return (
    <div className="space-y-1">
      <label htmlFor={htmlFor} className={cx("block text-sm font-medium", error ? "text-red-600 dark:text-red-400" : "text-slate-700 dark:text-slate-300")}>
        {label}
      </label>
      {children}
      {help && <p className="text-xs text-slate-500 dark:text-slate-400">{help}</p>}
    </div>
  );
}

export function Toggle({
  checked,
  onChange,
  label,
  disabled,
}: {
  checked: boolean;
  onChange: (value: boolean) => void;
  label: string;
  disabled?: boolean;
}) {
  const id = useId();
  return (
    <div className="flex items-center gap-2">
      <SwitchPrimitive.Root
        id={id}
        checked={checked}
        onCheckedChange={onChange}
        disabled={disabled}
        aria-label={label}
        className={cx(
          "relative inline-flex h-5 w-9 shrink-0 items-center rounded-full border p-px transition disabled:opacity-50",
          // off: a grey track, thumb left; on: an indigo track, thumb right (each theme sets both states)
          "data-[state=unchecked]:border-slate-400 data-[state=unchecked]:bg-slate-300 data-[state=checked]:border-indigo-700 data-[state=checked]:bg-indigo-600",
          "dark:data-[state=unchecked]:border-slate-500 dark:data-[state=unchecked]:bg-slate-700 dark:data-[state=checked]:border-indigo-300 dark:data-[state=checked]:bg-indigo-500",
        )}
      >
        <SwitchPrimitive.Thumb className="block h-4 w-4 translate-x-0 rounded-full bg-white shadow transition data-[state=checked]:translate-x-4 dark:data-[state=unchecked]:bg-slate-300" />
      </SwitchPrimitive.Root>
      <label htmlFor={id} className="text-sm text-slate-700 dark:text-slate-300">
        {label}
      </label>
    </div>
  );
}

export function Card({ children, className }: { children: ReactNode; className?: string }) {
  return (
    <div className={cx("rounded-lg border border-slate-200 bg-white p-4 shadow-sm dark:border-slate-800 dark:bg-slate-900", className)}>
      {children}
    </div>
  );
}

export function PageHeader({ title, description, actions }: { title: string; description?: string; actions?: ReactNode }) {
  return (
    <div className="mb-4 flex flex-wrap items-start justify-between gap-3">
      <div>
        <h1 className="text-xl font-semibold">{title}</h1>
        {description && <p className="text-sm text-slate-500 dark:text-slate-400">{description}</p>}
      </div>
      {actions && <div className="flex flex-wrap gap-2">{actions}</div>}
    </div>
  );
}

const BADGE: Record<string, string> = {
  green: "bg-emerald-100 text-emerald-800 dark:bg-emerald-900/50 dark:text-emerald-300",
  red: "bg-red-100 text-red-800 dark:bg-red-900/50 dark:text-red-300",
  yellow: "bg-amber-100 text-amber-800 dark:bg-amber-900/50 dark:text-amber-300",
  blue: "bg-sky-100 text-sky-800 dark:bg-sky-900/50 dark:text-sky-300",
  gray: "bg-slate-100 text-slate-700 dark:bg-slate-800 dark:text-slate-300",
};

const STATUS_COLOR: Record<string, string> = {
  Success: "green",
  Ready: "green",
  Indexed: "green",
  Completed: "green",
  Active: "green",
  Enabled: "green",
  Failed: "red",
  Error: "red",
  Disabled: "gray",
  Cancelled: "gray",
  Queued: "yellow",
  Pending: "yellow",
  Started: "blue",
  Running: "blue",
  Indexing: "blue",
  Rebuilding: "blue",
  Processing: "blue",
};

export function Badge({ children, color }: { children: ReactNode; color?: string }) {
  const key = color ?? (typeof children === "string" ? STATUS_COLOR[children] : undefined) ?? "gray";
  return <span className={cx("inline-flex rounded-full px-2 py-0.5 text-xs font-medium", BADGE[key] ?? BADGE.gray)}>{children}</span>;
}

export function ErrorBanner({ message, title }: { message: string; title?: string }) {
  return (
    <div role="alert" className="rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-800 dark:border-red-800 dark:bg-red-950/50 dark:text-red-200">
      {title && <p className="font-semibold">{title}</p>}
      <p>{message}</p>
    </div>
  );
}

export function Notice({ message }: { message: string }) {
  return (
    <div role="status" className="rounded-md border border-emerald-300 bg-emerald-50 p-3 text-sm text-emerald-800 dark:border-emerald-800 dark:bg-emerald-950/50 dark:text-emerald-200">
      {message}
    </div>
  );
}

export function EmptyState({ title, description, action }: { title: string; description?: string; action?: ReactNode }) {
  return (
    <div className="rounded-lg border border-dashed border-slate-300 p-8 text-center dark:border-slate-700">
      <p className="font-medium">{title}</p>
      {description && <p className="mt-1 text-sm text-slate-500 dark:text-slate-400">{description}</p>}
      {action && <div className="mt-3">{action}</div>}
    </div>
  );
}

export function Spinner({ label = "Loading…" }: { label?: string }) {
  return (
    <div role="status" className="flex items-center gap-2 p-4 text-sm text-slate-500">
      <span className="h-4 w-4 animate-spin rounded-full border-2 border-slate-300 border-t-indigo-600" />
      {label}
    </div>
  );
}

/** A table that scrolls sideways inside its own box on narrow screens (the box can be focused to scroll
 * it with the keyboard); `label` names it for screen readers (default: its column headings). */
export function Table({ head, children, label }: { head: string[]; children: ReactNode; label?: string }) {
  return (
    <div
      role="region"
      aria-label={label ?? (head.filter(Boolean).join(", ") || "Table")}
      tabIndex={0}
      className="overflow-x-auto rounded-lg border border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-900"
    >
      <table className="w-full text-left text-sm">
        <thead className="border-b border-slate-200 bg-slate-50 text-xs uppercase text-slate-500 dark:border-slate-800 dark:bg-slate-900/60 dark:text-slate-400">
          <tr>
            {head.map((h) => (
              <th key={h} className="px-3 py-2 font-medium">
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100 dark:divide-slate-800">{children}</tbody>
      </table>
    </div>
  );
}

export { cx };
