/** The tool picker's search: the tools whose name or description holds every word typed (any case), in name order. */

export interface PickableTool {
  name: string;
  description?: string | null;
}

export function searchTools<T extends PickableTool>(tools: T[], query: string, exclude: Iterable<string> = []): T[] {
  const taken = new Set(exclude);
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  return tools
    .filter((t) => !taken.has(t.name))
    .filter((t) => {
      const text = `${t.name} ${t.description ?? ""}`.toLowerCase();
      return words.every((w) => text.includes(w));
    })
    .sort((a, b) => a.name.localeCompare(b.name));
}
