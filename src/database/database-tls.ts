import { readFileSync } from 'node:fs';
import type { MysqlConnectionParameters } from './database-url';

type Tls = MysqlConnectionParameters['tls'];

/** What mysql2 needs for a `ssl-mode` (database-url.ts): nothing for DISABLED, else its `ssl` option. */
export function tlsOptions(tls: Tls): { ca?: string; rejectUnauthorized: boolean; verifyIdentity: boolean } | null {
  if (tls.mode === 'DISABLED') return null;
  let ca: string | undefined;
  if (tls.caFile !== undefined) {
    try {
      ca = readFileSync(tls.caFile, 'utf8');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? String(error);
      throw new Error(`DATABASE_URL: the ssl-ca file ${tls.caFile} cannot be read (${code})`, { cause: error });
    }
  }
  return {
    ...(ca !== undefined ? { ca } : {}),
    rejectUnauthorized: tls.mode !== 'REQUIRED',
    verifyIdentity: tls.mode === 'VERIFY_IDENTITY',
  };
}

export function sameTls(a: Tls, b: Tls): boolean {
  return a.mode === b.mode && a.caFile === b.caFile;
}
