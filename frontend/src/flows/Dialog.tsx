import { useEffect, useId, useRef, type ReactNode } from "react";

/** A modal dialog: focus moves into it, Escape closes it; `wide` for content like a table. */
export function Dialog({ title, onClose, children, footer, wide = false }: { title: string; onClose: () => void; children: ReactNode; footer: ReactNode; wide?: boolean }) {
  const id = useId();
  const box = useRef<HTMLDivElement>(null);
  const close = useRef(onClose);
  close.current = onClose;
  useEffect(() => {
    const previous = document.activeElement as HTMLElement | null;
    box.current?.querySelector<HTMLElement>("input, textarea, select, button")?.focus();
    const onKey = (event: KeyboardEvent) => event.key === "Escape" && close.current();
    window.addEventListener("keydown", onKey);
    return () => {
      window.removeEventListener("keydown", onKey);
      previous?.focus?.();
    };
  }, []);
  return (
    <div className="fixed inset-0 z-50 flex items-center justify-center bg-slate-900/50 p-4">
      <div ref={box} role="dialog" aria-modal="true" aria-labelledby={id} className={`max-h-[90vh] w-full ${wide ? "max-w-3xl" : "max-w-lg"} space-y-3 overflow-y-auto rounded-lg bg-white p-5 shadow-xl dark:bg-slate-900`}>
        <h2 id={id} className="text-lg font-semibold">
          {title}
        </h2>
        {children}
        <div className="flex justify-end gap-2">{footer}</div>
      </div>
    </div>
  );
}
