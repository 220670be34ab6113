import { Monitor, Moon, Sun } from "lucide-react";
import { useEffect, useState } from "react";
import { applyTheme, initialTheme, resolveTheme, systemPrefersDark, watchSystemTheme, type Theme, type ThemeChoice } from "../lib/theme";
import { cx } from "./ui";

const buttonClass =
  "inline-flex items-center gap-1 rounded px-2 py-1 text-xs text-slate-600 hover:bg-slate-100 dark:text-slate-300 dark:hover:bg-slate-800";

/** Light/dark toggle, and "System" to follow the operating system's preference again (the default). */
export function ThemeControl() {
  const [choice, setChoice] = useState<ThemeChoice>(initialTheme);
  const [theme, setTheme] = useState<Theme>(() => resolveTheme(choice, systemPrefersDark()));
  useEffect(() => {
    setTheme(applyTheme(choice));
    if (choice !== "system") return undefined;
    return watchSystemTheme(() => setTheme(applyTheme("system")));
  }, [choice]);

  const following = choice === "system";
  return (
    <div className="flex flex-wrap gap-1" role="group" aria-label="Theme">
      <button
        type="button"
        className={buttonClass}
        onClick={() => setChoice(theme === "dark" ? "light" : "dark")}
        aria-label={theme === "dark" ? "Switch to light theme" : "Switch to dark theme"}
      >
        {theme === "dark" ? <Sun size={14} aria-hidden="true" /> : <Moon size={14} aria-hidden="true" />}
        {theme === "dark" ? "Light" : "Dark"}
      </button>
      <button
        type="button"
        className={cx(buttonClass, following && "bg-slate-100 font-medium text-slate-900 dark:bg-slate-800 dark:text-white")}
        onClick={() => setChoice("system")}
        aria-pressed={following}
        title="Follow the theme of your device"
      >
        <Monitor size={14} aria-hidden="true" />
        System
      </button>
    </div>
  );
}
