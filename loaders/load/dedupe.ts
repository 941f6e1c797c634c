/**
 * Duplicate person ids across a dump: the row with the later `updated_at` wins (a tie goes to the later
 * line). Rows are staged as they stream in, so a winner arriving late marks the earlier row's staging
 * sequence number as dropped; the writer deletes dropped rows before the release is built.
 */
export interface Loser {
  line: number;
  winnerLine: number;
}

export class PersonDedupe {
  private readonly seen = new Map<string, number>();
  private readonly updatedAt: string[] = [];
  private readonly lines: number[] = [];
  /** Staging sequence numbers of rows that lost to a later duplicate. */
  readonly dropped: number[] = [];

  /**
   * Registers row `seq`; returns null when it is new, else which row lost. When the new row loses
   * (`line` equals the returned loser line) it must not be staged.
   */
  offer(id: string, updatedAt: string, seq: number, line: number): Loser | null {
    const prev = this.seen.get(id);
    this.updatedAt[seq] = updatedAt;
    this.lines[seq] = line;
    if (prev === undefined) {
      this.seen.set(id, seq);
      return null;
    }
    const prevAt = this.updatedAt[prev]!;
    const prevLine = this.lines[prev]!;
    if (updatedAt >= prevAt) {
      this.seen.set(id, seq);
      this.dropped.push(prev);
      return { line: prevLine, winnerLine: line };
    }
    return { line, winnerLine: prevLine };
  }
}
