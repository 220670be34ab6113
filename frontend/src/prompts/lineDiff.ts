/** A line diff of two texts (longest common subsequence), laid out side by side. */

export type DiffKind = "same" | "removed" | "added" | "changed";

export interface DiffSide {
  /** 1-based line number in its text. */
  line: number;
  text: string;
}

export interface DiffRow {
  kind: DiffKind;
  left?: DiffSide;
  right?: DiffSide;
}

type Op = { kind: "same" | "removed" | "added"; left?: DiffSide; right?: DiffSide };

const splitLines = (text: string): string[] => (text === "" ? [] : text.replace(/\r\n?/g, "\n").split("\n"));

/** The edit script from `a` to `b`, line by line. */
function operations(a: string[], b: string[]): Op[] {
  // common prefix and suffix first: most versions differ in a few lines
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const n = endA - start;
  const m = endB - start;
  // lcs[i][j]: length of the longest common subsequence of a[start+i..endA) and b[start+j..endB)
  const table = new Uint32Array((n + 1) * (m + 1));
  const lcs = (i: number, j: number): number => table[i * (m + 1) + j] ?? 0;
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      table[i * (m + 1) + j] = a[start + i] === b[start + j] ? lcs(i + 1, j + 1) + 1 : Math.max(lcs(i + 1, j), lcs(i, j + 1));
    }
  }
  const ops: Op[] = [];
  const same = (i: number, j: number) => ops.push({ kind: "same", left: { line: i + 1, text: a[i] ?? "" }, right: { line: j + 1, text: b[j] ?? "" } });
  for (let k = 0; k < start; k++) same(k, k);
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[start + i] === b[start + j]) {
      same(start + i, start + j);
      i++;
      j++;
    } else if (j < m && (i === n || lcs(i, j + 1) >= lcs(i + 1, j))) {
      ops.push({ kind: "added", right: { line: start + j + 1, text: b[start + j] ?? "" } });
      j++;
    } else {
      ops.push({ kind: "removed", left: { line: start + i + 1, text: a[start + i] ?? "" } });
      i++;
    }
  }
  for (let k = 0; k < a.length - endA; k++) same(endA + k, endB + k);
  return ops;
}

/** Side-by-side rows: unchanged lines on both sides, a removed line beside the added line that replaced it. */
export function sideBySide(before: string, after: string): DiffRow[] {
  const ops = operations(splitLines(before), splitLines(after));
  const rows: DiffRow[] = [];
  let k = 0;
  while (k < ops.length) {
    const op = ops[k];
    if (op?.kind === "same") {
      rows.push(op);
      k++;
      continue;
    }
    const removed: DiffSide[] = [];
    const added: DiffSide[] = [];
    for (let next = ops[k]; next && next.kind !== "same"; next = ops[++k]) {
      if (next.kind === "removed" && next.left) removed.push(next.left);
      if (next.kind === "added" && next.right) added.push(next.right);
    }
    for (let p = 0; p < Math.max(removed.length, added.length); p++) {
      const left = removed[p];
      const right = added[p];
      rows.push({ kind: left && right ? "changed" : left ? "removed" : "added", left, right });
    }
  }
  return rows;
}

/** How many lines were added and removed. */
export function diffStats(rows: DiffRow[]): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  for (const row of rows) {
    if (row.kind === "added" || row.kind === "changed") added++;
    if (row.kind === "removed" || row.kind === "changed") removed++;
  }
  return { added, removed };
}
