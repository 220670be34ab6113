/** The icons a data table can have (stored by name in its `icon`); unknown names show the table icon. */

const PATHS: Record<string, string> = {
  table: "M3 5h18v14H3zM3 10h18M3 15h18M9 5v14",
  users: "M16 19v-1a4 4 0 0 0-4-4H6a4 4 0 0 0-4 4v1M9 10a3 3 0 1 0 0-6 3 3 0 0 0 0 6zM22 19v-1a4 4 0 0 0-3-3.9M16 4.1a3 3 0 0 1 0 5.8",
  box: "M21 8l-9-5-9 5v8l9 5 9-5zM3 8l9 5 9-5M12 13v8",
  calendar: "M3 5h18v16H3zM3 10h18M8 3v4M16 3v4",
  tag: "M3 12V3h9l9 9-9 9zM7.5 7.5h.01",
  file: "M14 3H6v18h12V7zM14 3v4h4M9 13h6M9 17h6",
  star: "M12 3l2.8 5.7 6.2.9-4.5 4.4 1 6.2L12 17.3 6.5 20.2l1-6.2L3 9.6l6.2-.9z",
  chart: "M4 20V10M10 20V4M16 20v-7M22 20H2",
};

export const TABLE_ICONS = Object.keys(PATHS);

export function TableIcon({ icon }: { icon: string | null | undefined }) {
  const d = PATHS[icon ?? ""] ?? PATHS.table;
  return (
    <span className="mt-0.5 inline-flex h-7 w-7 shrink-0 items-center justify-center rounded-md bg-indigo-50 text-indigo-600 dark:bg-indigo-950 dark:text-indigo-300">
      <svg width={16} height={16} viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
        <path d={d} />
      </svg>
    </span>
  );
}
