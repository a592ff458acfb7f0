import type { Logger } from 'pino';
import { ConfigurationError, validateEnvironment, type EnvironmentVariables } from '../config/env.schema';
import { lookalikeVariables, lookalikeWarning } from '../config/variable-names';
import { failureWithHint } from '../database/connection-failures';

interface ListenError {
  code?: unknown;
  port?: unknown;
}

/** What an operator can do about a server that could not listen. */
function listenHint(error: unknown): string | undefined {
  const { code, port } = (typeof error === 'object' && error !== null ? error : {}) as ListenError;
  const where = typeof port === 'number' ? `port ${port}` : 'the port';
  if (code === 'EADDRINUSE') {
    return `another process already listens on ${where}: stop it, or start this one with another PORT (PORT=3001 npm start)`;
  }
  if (code === 'EACCES')
    return `this user may not listen on ${where}: use PORT 1024 or above (a proxy can serve 80/443)`;
  if (code === 'EADDRNOTAVAIL')
    return 'HOST is not an address of this machine: use 0.0.0.0, 127.0.0.1 or one of its own';
  return undefined;
}

/** A failure's message with what to do, for the start-up's one `fatal` line. */
export function startupFailureMessage(error: unknown): string {
  const hint = listenHint(error);
  return hint ? `${(error as Error).message}: ${hint}` : failureWithHint(error);
}

/**
 * Reports a failed start once: bad settings as plain lines on a terminal (a person reads them), otherwise
 * as one JSON line like every other log line (a collector reads it), without a stack trace, which would
 * only point into the validation code; anything else as one `fatal` line with its hint.
 */
export function reportStartupFailure(
  error: unknown,
  logger: Logger,
  stderr: NodeJS.WriteStream = process.stderr,
): void {
  if (error instanceof ConfigurationError) {
    if (stderr.isTTY) stderr.write(`${error.message}\n(docs/configuration.md lists every setting)\n`);
    else
      logger.fatal(
        { problems: error.problems },
        `start-up failed: invalid configuration: ${error.problems.join('; ')}`,
      );
    return;
  }
  logger.fatal({ err: error }, `start-up failed: ${startupFailureMessage(error)}`);
}

/**
 * The settings, read before anything starts: a warning line for each variable that looks meant for this
 * service but is not read by it (a typo would otherwise leave it silently unused); throws
 * {@link ConfigurationError} for bad values.
 */
export function readSettings(env: Record<string, string | undefined>, logger: Logger): EnvironmentVariables {
  for (const lookalike of lookalikeVariables(env)) logger.warn(lookalikeWarning(lookalike));
  return validateEnvironment(env);
}
