/**
 * The order test files start in: vitest starts the files it has no timings for by size, largest
 * first, so on a fresh clone (CI's case) a short file of long tests starts last and the other worker
 * sits idle while it runs. The files below take longest, most by far the first; they start first,
 * and the rest keep vitest's own order.
 */
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const LONGEST = ['test/workers/sandbox-programs.test.ts', 'test/workers/egress.test.ts'];

export class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (file: TestSpecification) => {
      const index = LONGEST.findIndex((name) => file.moduleId.endsWith(name));
      return index === -1 ? LONGEST.length : index;
    };
    return sorted
      .map((file, order) => ({ file, order }))
      .sort((a, b) => rank(a.file) - rank(b.file) || a.order - b.order)
      .map(({ file }) => file);
  }
}
