/** Light and dark themes: the system's preference, until the user picks one (remembered per browser). */

export type Theme = "light" | "dark";
/** What the user chose: a theme, or "system" to follow the operating system's preference. */
export type ThemeChoice = Theme | "system";

const KEY = "huf-theme";
const DARK_QUERY = "(prefers-color-scheme: dark)";

/** The theme shown for `choice` when the system prefers dark (`systemDark`) or not. */
export function resolveTheme(choice: ThemeChoice, systemDark: boolean): Theme {
  if (choice === "system") return systemDark ? "dark" : "light";
  return choice;
}

/** The stored choice; anything but "light" or "dark" (nothing saved, an old or broken value) is "system". */
export function parseChoice(saved: string | null | undefined): ThemeChoice {
  return saved === "light" || saved === "dark" ? saved : "system";
}

function storage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null; // storage blocked (private mode, sandboxed frame): the choice lasts for the page only
  }
}

export function systemPrefersDark(): boolean {
  return Boolean(window.matchMedia?.(DARK_QUERY).matches);
}

export function initialTheme(): ThemeChoice {
  return parseChoice(storage()?.getItem(KEY));
}

/** Show the theme of `choice` and remember it ("system" forgets the user's pick). */
export function applyTheme(choice: ThemeChoice): Theme {
  const theme = resolveTheme(choice, systemPrefersDark());
  document.documentElement.classList.toggle("dark", theme === "dark");
  const store = storage();
  if (choice === "system") store?.removeItem(KEY);
  else store?.setItem(KEY, choice);
  return theme;
}

/** Call `onChange` whenever the system's preference changes; returns the unsubscribe function. */
export function watchSystemTheme(onChange: () => void): () => void {
  const query = window.matchMedia?.(DARK_QUERY);
  if (!query) return () => {};
  query.addEventListener("change", onChange);
  return () => query.removeEventListener("change", onChange);
}
