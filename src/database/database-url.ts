import { isIP } from 'node:net';
import { isAbsolute, resolve } from 'node:path';

/**
 * TLS to a MySQL/MariaDB server, named as MySQL's own clients name it (`--ssl-mode`): `REQUIRED`
 * encrypts without checking the certificate, `VERIFY_CA` also checks it against the trusted CAs (Node's,
 * or `ssl-ca`), `VERIFY_IDENTITY` also checks that it names the host of the URL.
 */
export const TLS_MODES = ['DISABLED', 'REQUIRED', 'VERIFY_CA', 'VERIFY_IDENTITY'] as const;
export type TlsMode = (typeof TLS_MODES)[number];

export interface MysqlConnectionParameters {
  /** A Unix socket of a server on this host: the URL's host and port are then not used. */
  socket?: string;
  tls: { mode: TlsMode; caFile?: string };
}

export type DatabaseTarget =
  | { kind: 'sqlite'; file: string }
  | { kind: 'mysql'; url: string; database: string; connection: MysqlConnectionParameters };

const PARAMETERS = ['socket', 'ssl-mode', 'ssl-ca'] as const;

/**
 * Reads `DATABASE_URL`: `sqlite:<path>` (relative to the working directory, or `:memory:`)
 * or `mysql://user:pass@host:port/database` (`mariadb://` is accepted as an alias), with optional
 * parameters `socket=<path>`, `ssl-mode=<TlsMode>` and `ssl-ca=<PEM file>`. The returned `url` has no
 * parameters. Throws a message an operator can act on for anything else.
 */
export function parseDatabaseUrl(raw: string): DatabaseTarget {
  if (raw.startsWith('sqlite:')) {
    let file = raw.slice('sqlite:'.length);
    if (file.startsWith('//')) file = file.slice(2);
    if (file === '') throw new Error('DATABASE_URL: sqlite: needs a file path');
    if (file !== ':memory:' && !isAbsolute(file)) file = resolve(process.cwd(), file);
    return { kind: 'sqlite', file };
  }
  const normalised = raw.replace(/^mariadb:\/\//, 'mysql://');
  let parsed: URL;
  try {
    parsed = new URL(normalised);
  } catch {
    throw new Error('DATABASE_URL is not a valid URL');
  }
  const database = decodeURIComponent(parsed.pathname.replace(/^\//, ''));
  if (parsed.protocol !== 'mysql:' || database === '') {
    throw new Error('DATABASE_URL must look like mysql://user:pass@host:3306/database');
  }
  const connection = connectionParameters(parsed.searchParams);
  // mysql2 checks a certificate's names only against a host name: with an address, VERIFY_IDENTITY would
  // quietly be VERIFY_CA. Refused rather than promised.
  if (
    connection.tls.mode === 'VERIFY_IDENTITY' &&
    connection.socket === undefined &&
    isIP(parsed.hostname.replace(/^\[|\]$/g, '')) !== 0
  ) {
    throw new Error(
      'DATABASE_URL: ssl-mode=VERIFY_IDENTITY needs the host name the certificate names, not an IP address (or use VERIFY_CA)',
    );
  }
  parsed.search = '';
  parsed.hash = '';
  return { kind: 'mysql', url: parsed.toString(), database, connection };
}

function connectionParameters(params: URLSearchParams): MysqlConnectionParameters {
  const seen = new Set<string>();
  for (const name of params.keys()) {
    if (!(PARAMETERS as readonly string[]).includes(name)) {
      throw new Error(`DATABASE_URL: unknown parameter "${name}" (known: ${PARAMETERS.join(', ')})`);
    }
    if (seen.has(name)) throw new Error(`DATABASE_URL: parameter "${name}" is given twice`);
    seen.add(name);
  }
  const present = (name: (typeof PARAMETERS)[number]): string | undefined => {
    const value = params.get(name);
    if (value === null) return undefined;
    if (value.trim() === '') throw new Error(`DATABASE_URL: parameter "${name}" is empty`);
    return value.trim();
  };
  const socket = present('socket');
  const ca = present('ssl-ca');
  const caFile = ca === undefined ? undefined : resolve(process.cwd(), ca);
  const modeText = present('ssl-mode')?.toUpperCase();
  if (modeText !== undefined && !(TLS_MODES as readonly string[]).includes(modeText)) {
    throw new Error(`DATABASE_URL: ssl-mode must be one of ${TLS_MODES.join(', ')}`);
  }
  // As MySQL's clients do: a CA given without a mode asks for the certificate to be checked against it.
  const mode = (modeText as TlsMode | undefined) ?? (caFile !== undefined ? 'VERIFY_CA' : 'DISABLED');
  if (caFile !== undefined && (mode === 'DISABLED' || mode === 'REQUIRED')) {
    throw new Error(`DATABASE_URL: ssl-ca is only used with ssl-mode=VERIFY_CA or VERIFY_IDENTITY`);
  }
  if (socket !== undefined && !isAbsolute(socket)) throw new Error('DATABASE_URL: socket must be an absolute path');
  return { ...(socket !== undefined ? { socket } : {}), tls: { mode, ...(caFile !== undefined ? { caFile } : {}) } };
}
