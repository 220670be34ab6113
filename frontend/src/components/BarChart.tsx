/** A small accessible bar chart (inline SVG): one bar per label. */
export function BarChart({
  title,
  labels,
  values,
  format = (v) => String(v),
}: {
  title: string;
  labels: string[];
  values: number[];
  format?: (value: number) => string;
}) {
  const max = Math.max(1e-9, ...values);
  const width = 560;
  const height = 140;
  const bar = width / Math.max(1, values.length);
  return (
    <figure>
      <figcaption className="mb-2 text-sm font-medium">{title}</figcaption>
      <svg viewBox={`0 0 ${width} ${height + 18}`} className="w-full" role="img" aria-label={title}>
        {values.map((v, i) => {
          const h = (v / max) * height;
          return (
            <g key={labels[i] ?? i}>
              <title>{`${labels[i] ?? ""}: ${format(v)}`}</title>
              <rect x={i * bar + 2} y={height - h} width={Math.max(1, bar - 4)} height={h} rx={2} className="fill-indigo-500" />
              {i % Math.ceil(values.length / 7) === 0 && (
                <text x={i * bar + bar / 2} y={height + 14} textAnchor="middle" className="fill-slate-500 text-[10px]">
                  {(labels[i] ?? "").slice(5)}
                </text>
              )}
            </g>
          );
        })}
      </svg>
    </figure>
  );
}
