import { useEffect, useRef } from "react";
import { GROUPS, NODE_TYPES } from "./nodeTypes";

const WIDTH = 240;
const HEIGHT = 288;

/**
 * The steps that can follow a connection dropped on empty canvas, shown where it was dropped (`at`, in the
 * canvas box's pixels, kept inside `room`): the one chosen is added there, connected. Esc or a click
 * elsewhere closes it.
 */
export function StepPicker({
  at,
  room,
  after,
  onPick,
  onClose,
}: {
  at: { x: number; y: number };
  room: { width: number; height: number };
  after: string;
  onPick: (type: string) => void;
  onClose: () => void;
}) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    ref.current?.querySelector("button")?.focus();
    const onDown = (event: PointerEvent) => {
      if (!ref.current?.contains(event.target as Node)) onClose();
    };
    document.addEventListener("pointerdown", onDown);
    return () => document.removeEventListener("pointerdown", onDown);
  }, [onClose]);
  const left = Math.max(4, Math.min(at.x, room.width - WIDTH - 4));
  const top = Math.max(4, Math.min(at.y, room.height - Math.min(HEIGHT, room.height - 8) - 4));
  return (
    <div
      ref={ref}
      role="dialog"
      aria-label={`Add a step after ${after}`}
      data-testid="step-picker"
      onKeyDown={(event) => {
        if (event.key === "Escape") {
          event.stopPropagation();
          onClose();
        }
      }}
      style={{ left, top, width: WIDTH, maxHeight: Math.min(HEIGHT, room.height - 8) }}
      className="absolute z-20 overflow-y-auto rounded-md border border-slate-200 bg-white p-2 text-sm shadow-lg dark:border-slate-700 dark:bg-slate-900"
    >
      <p className="mb-1 px-1 text-xs font-semibold">Add a step after {after}</p>
      {GROUPS.filter((group) => group.id !== "triggers").map((group) => (
        <div key={group.id} className="mb-1">
          <p className="px-1 text-[11px] font-semibold uppercase tracking-wide text-slate-600 dark:text-slate-400">{group.label}</p>
          {NODE_TYPES.filter((info) => info.group === group.id && info.inputs).map((info) => (
            <button
              key={info.type}
              type="button"
              title={info.description}
              data-node-type={info.type}
              onClick={() => onPick(info.type)}
              className="block w-full rounded px-2 py-1 text-left hover:bg-indigo-50 focus-visible:outline-offset-[-2px] dark:hover:bg-slate-800"
            >
              {info.label}
            </button>
          ))}
        </div>
      ))}
    </div>
  );
}
