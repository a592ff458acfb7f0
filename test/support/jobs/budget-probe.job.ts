/** Jobs for `bounded-worker.spec.ts`: one per way a job in a worker thread can end. */
export function run(input: { mode: 'echo' | 'spin' | 'fill' | 'throw' | 'exit'; value?: unknown }): unknown {
  switch (input.mode) {
    case 'echo':
      return { echoed: input.value };
    case 'spin':
      for (;;);
    case 'fill': {
      const kept: string[][] = [];
      for (;;) kept.push(Array.from({ length: 100_000 }, (_, i) => `${i}-${kept.length}`));
    }
    case 'throw':
      throw new Error('the job gave up');
    case 'exit':
      process.exit(3);
  }
}
