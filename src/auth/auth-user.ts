import { capabilitiesOf, type Capability, type Role } from './roles';

/** The caller, once their credentials were checked. Anonymous callers have none (`null`). */
export interface AuthUser {
  id: number;
  login: string;
  role: Role;
  capabilities: ReadonlySet<Capability>;
}

export function toAuthUser(user: { id: number; login: string; role: Role }): AuthUser {
  return { id: user.id, login: user.login, role: user.role, capabilities: capabilitiesOf(user.role) };
}

export function can(user: AuthUser | null, capability: Capability): boolean {
  return user !== null && user.capabilities.has(capability);
}
