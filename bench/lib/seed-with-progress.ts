import { startProgress } from '../../src/common/progress/progress';
import { seed } from './seed';

/** Seeds with a progress bar (rate, ETA) on a terminal and plain lines otherwise, on stderr. */
export async function seedWithProgress(databaseUrl: string, events: number): ReturnType<typeof seed> {
  const progress = startProgress('seeding events', events);
  try {
    return await seed({ databaseUrl, events, log: (line) => console.log(line), progress });
  } finally {
    progress.stop();
  }
}
