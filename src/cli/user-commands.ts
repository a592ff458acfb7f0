import { Command } from 'commander';
import type { ApplicationPasswordsService } from '../auth/application-passwords.service';
import type { UserEntity } from '../auth/user.entity';
import type { UsersService } from '../auth/users.service';
import { ROLES } from '../auth/roles';

export interface CliServices {
  users: UsersService;
  passwords: ApplicationPasswordsService;
  /** Asks on the terminal; false when there is none to ask on. */
  confirm: (question: string) => Promise<boolean>;
}

export interface CliOutput {
  /** For people: one or more lines. */
  text: string;
  /** For scripts, with `--json`. */
  json: unknown;
  /** 0 unless the command reports a state a script should act on (pending migrations: 3). */
  exitCode?: number;
}

type Run = (action: (services: CliServices) => Promise<CliOutput>, json: boolean) => Promise<void>;

const userJson = (u: UserEntity) => ({
  id: u.id,
  login: u.login,
  display_name: u.displayName,
  email: u.email,
  role: u.role,
  registered_utc: u.registeredUtc,
});

/** The user and application-password commands; `run` opens the services and prints the result. */
export function addUserCommands(program: Command, run: Run): void {
  program
    .command('user:create')
    .description('create a user with a role')
    .argument('<login>', 'login name (letters, digits, . _ @ -)')
    .requiredOption('--role <role>', `one of ${ROLES.join(', ')}`)
    .option('--email <email>', 'e-mail address')
    .option('--name <display name>', 'display name (defaults to the login)')
    .option('--json', 'print JSON')
    .action((login: string, o: { role: string; email?: string; name?: string; json?: boolean }) =>
      run(async ({ users }) => {
        const user = await users.create({ login, role: o.role, email: o.email, displayName: o.name });
        return { text: `created user ${user.login} (id ${user.id}, role ${user.role})`, json: userJson(user) };
      }, o.json === true),
    );

  program
    .command('user:list')
    .description('list users and their roles')
    .option('--json', 'print JSON')
    .action((o: { json?: boolean }) =>
      run(async ({ users }) => {
        const all = await users.list();
        const text =
          all.length === 0 ? 'no users' : all.map((u) => `${u.id}\t${u.login}\t${u.role}\t${u.email ?? ''}`).join('\n');
        return { text, json: all.map(userJson) };
      }, o.json === true),
    );

  program
    .command('user:set-role')
    .description("change a user's role")
    .argument('<login>', 'login name')
    .argument('<role>', `one of ${ROLES.join(', ')}`)
    .option('--json', 'print JSON')
    .action((login: string, role: string, o: { json?: boolean }) =>
      run(async ({ users }) => {
        const user = await users.setRole(login, role);
        return { text: `${user.login} is now ${user.role}`, json: userJson(user) };
      }, o.json === true),
    );

  program
    .command('password:issue')
    .description('issue an application password (printed once)')
    .argument('<login>', 'login name')
    .option('--name <name>', 'what the password is for', 'cli')
    .option('--json', 'print JSON')
    .action((login: string, o: { name: string; json?: boolean }) =>
      run(async ({ users, passwords }) => {
        const user = await users.requireByLogin(login);
        const issued = await passwords.issue(user.id, o.name);
        return {
          text: `application password "${issued.name}" for ${user.login} (id ${issued.id}):\n\n  ${issued.password}\n\nStore it now: it is not shown again.`,
          json: {
            id: issued.id,
            login: user.login,
            name: issued.name,
            password: issued.password,
            created_utc: issued.createdUtc,
          },
        };
      }, o.json === true),
    );

  program
    .command('password:list')
    .description("list a user's application passwords (never the passwords themselves)")
    .argument('<login>', 'login name')
    .option('--json', 'print JSON')
    .action((login: string, o: { json?: boolean }) =>
      run(async ({ users, passwords }) => {
        const user = await users.requireByLogin(login);
        const rows = await passwords.list(user.id);
        const json = rows.map((p) => ({
          id: p.id,
          name: p.name,
          created_utc: p.createdUtc,
          last_used_utc: p.lastUsedUtc,
          last_ip: p.lastIp,
        }));
        const text =
          rows.length === 0
            ? `${user.login} has no application passwords`
            : rows
                .map((p) => `${p.id}\t${p.name}\tcreated ${p.createdUtc}\tlast used ${p.lastUsedUtc ?? 'never'}`)
                .join('\n');
        return { text, json };
      }, o.json === true),
    );

  program
    .command('password:revoke')
    .description('revoke an application password by its id: names it and asks first')
    .argument('<login>', 'login name')
    .argument('<id>', 'the password id shown by password:list')
    .option('--yes', 'do not ask (needed where there is no terminal to ask on)')
    .option('--json', 'print JSON')
    .action((login: string, id: string, o: { yes?: boolean; json?: boolean }) =>
      run(async ({ users, passwords, confirm }) => {
        const user = await users.requireByLogin(login);
        // Whoever signs in with it is locked out at once, on every instance: a person confirms it, a script says --yes.
        const named = (await passwords.list(user.id)).find((p) => p.id === id);
        if (named && o.yes !== true) {
          const what = `password:revoke revokes the application password "${named.name}" of ${user.login} (created ${named.createdUtc} UTC${named.lastUsedUtc ? `, last used ${named.lastUsedUtc} UTC` : ', never used'}); whoever signs in with it is refused from then on.\n`;
          if (!(await confirm(`${what}Type "yes" to go on: `))) {
            return {
              text: `nothing revoked. ${what}Confirm on a terminal, or add --yes.`,
              json: {
                revoked: null,
                would_revoke: { id, name: named.name, login: user.login },
                error: 'not confirmed: add --yes',
              },
              exitCode: 1,
            };
          }
        }
        await passwords.revoke(user.id, id);
        return {
          text: `revoked application password ${id} of ${user.login}`,
          json: { revoked: id, login: user.login },
        };
      }, o.json === true),
    );
}
