import { GROUPS, NODE_TYPES } from "./nodeTypes";

export const DRAG_TYPE = "application/x-huf-flow-node";

/** The steps that can be added: drag one onto the canvas, or press it to add it in the middle. */
export function NodePalette({ onAdd, disabled }: { onAdd: (type: string) => void; disabled?: boolean }) {
  return (
    <nav aria-label="Steps" className="space-y-3">
      {GROUPS.map((group) => (
        <div key={group.id}>
          <h3 className="mb-1 text-xs font-semibold uppercase tracking-wide text-slate-500">{group.label}</h3>
          <ul className="space-y-1">
            {NODE_TYPES.filter((info) => info.group === group.id).map((info) => (
              <li key={info.type}>
                <button
                  type="button"
                  draggable={!disabled}
                  disabled={disabled}
                  data-testid="palette-item"
                  data-node-type={info.type}
                  onDragStart={(event) => {
                    event.dataTransfer.setData(DRAG_TYPE, info.type);
                    event.dataTransfer.effectAllowed = "move";
                  }}
                  onClick={() => onAdd(info.type)}
                  title={`${info.description} Drag onto the canvas, or press to add.`}
                  aria-label={`Add ${info.label} step. ${info.label}: ${info.description}`}
                  className="w-full cursor-grab rounded-md border border-slate-200 bg-white px-2 py-1.5 text-left text-sm focus-visible:outline-offset-[-2px] hover:border-indigo-400 hover:bg-indigo-50 disabled:cursor-not-allowed disabled:opacity-60 dark:border-slate-700 dark:bg-slate-900 dark:hover:bg-slate-800"
                >
                  <span className="block font-medium">{info.label}</span>{" "}
                  <span className="block text-xs text-slate-500 dark:text-slate-400">{info.description}</span>
                </button>
              </li>
            ))}
          </ul>
        </div>
      ))}
    </nav>
  );
}
