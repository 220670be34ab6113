import { describe, expect, it } from "vitest";
import { barPercent, budgetTone, coverage } from "./budgetsApi";

describe("a budget's standing", () => {
  it("is used up at its limit, warning past its threshold, else ok", () => {
    expect(budgetTone({ spend: 5, limit_usd: 5, percent: 100, warning_percent: 80 })).toBe("used-up");
    expect(budgetTone({ spend: 0, limit_usd: 0, percent: 100, warning_percent: 80 })).toBe("used-up");
    expect(budgetTone({ spend: 4.1, limit_usd: 5, percent: 82, warning_percent: 80 })).toBe("warning");
    expect(budgetTone({ spend: 1, limit_usd: 5, percent: 20, warning_percent: 80 })).toBe("ok");
  });

  it("draws a bar between 0 and 100 percent and says what it covers", () => {
    expect([barPercent(130), barPercent(-1), barPercent(42.4)]).toEqual([100, 0, 42]);
    expect(coverage({ scope: "Site" })).toBe("Whole site");
    expect(coverage({ scope: "Agent", agent: "Support" })).toBe("Agent Support");
    expect(coverage({ scope: "User", user: "ada@example.com" })).toBe("User ada@example.com");
  });
});
