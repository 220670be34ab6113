import { describe, expect, it } from "vitest";
import { parseChoice, resolveTheme } from "./theme";

describe("theme choice", () => {
  it("follows the system until the user picks a theme", () => {
    expect(resolveTheme("system", true)).toBe("dark");
    expect(resolveTheme("system", false)).toBe("light");
    expect(resolveTheme("light", true)).toBe("light");
    expect(resolveTheme("dark", false)).toBe("dark");
  });

  it("reads only a saved light or dark pick; anything else means the system's theme", () => {
    expect(parseChoice("dark")).toBe("dark");
    expect(parseChoice("light")).toBe("light");
    expect(parseChoice(null)).toBe("system");
    expect(parseChoice("system")).toBe("system");
    expect(parseChoice("Dark")).toBe("system");
  });
});
