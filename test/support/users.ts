import { ApplicationPasswordsService } from '../../src/auth/application-passwords.service';
import type { Role } from '../../src/auth/roles';
import { UsersService } from '../../src/auth/users.service';
import type { TestApp } from './create-test-app';

export interface TestUser {
  id: number;
  login: string;
  password: string;
  passwordId: string;
  /** The `Authorization` header value. */
  auth: string;
}

export const basicAuth = (login: string, password: string): string =>
  `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}`;

let counter = 0;

/** A user of the role with one application password, made through the real services. */
export async function createUser(t: TestApp, role: Role, login = `${role}${++counter}`): Promise<TestUser> {
  const user = await t.app.get(UsersService).create({ login, role, email: `${login}@example.org` });
  const issued = await t.app.get(ApplicationPasswordsService).issue(user.id, 'tests');
  return {
    id: user.id,
    login,
    password: issued.password,
    passwordId: issued.id,
    auth: basicAuth(login, issued.password),
  };
}

/** One user per role. */
export async function createUsersForAllRoles(t: TestApp): Promise<Record<Role, TestUser>> {
  return {
    administrator: await createUser(t, 'administrator'),
    editor: await createUser(t, 'editor'),
    author: await createUser(t, 'author'),
    contributor: await createUser(t, 'contributor'),
    subscriber: await createUser(t, 'subscriber'),
  };
}
