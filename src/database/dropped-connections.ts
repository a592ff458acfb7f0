/** What is used here of a mysql2 connection, its statement in progress read by shape (mysql2 internals). */
interface DroppableConnection {
  destroy(): void;
  _command?: { queryTimeout?: NodeJS.Timeout | null } | null;
}

/** The mysql2 connection a TypeORM query runner holds, if it has taken one. */
export function connectionOf(runner: object): DroppableConnection | null {
  const connection = (runner as { databaseConnection?: unknown }).databaseConnection;
  return typeof connection === 'object' && connection !== null && 'destroy' in connection
    ? (connection as DroppableConnection)
    : null;
}

/**
 * Takes a connection whose statement is given up on out of its pool and closes it. mysql2 clears a
 * statement's timer only when an answer comes or the timer fires, so the timer of a statement given up on
 * would keep the process up for the rest of `DB_QUERY_TIMEOUT_SECONDS`: it is cleared here.
 */
export function dropConnection(connection: DroppableConnection | null): void {
  if (!connection) return;
  const command = connection._command;
  if (command?.queryTimeout) {
    clearTimeout(command.queryTimeout);
    command.queryTimeout = null;
  }
  connection.destroy();
}
