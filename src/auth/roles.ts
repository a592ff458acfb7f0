/**
 * Roles and capabilities as data, after WordPress's defaults. Checks ask for a capability, never for a
 * role, so a deployment can change who may do what by editing this table alone.
 */
export const ROLES = ['administrator', 'editor', 'author', 'contributor', 'subscriber'] as const;
export type Role = (typeof ROLES)[number];

export const CAPABILITIES = [
  'read',
  'edit_posts',
  'edit_others_posts',
  'edit_published_posts',
  'edit_private_posts',
  'publish_posts',
  'delete_posts',
  'delete_others_posts',
  'delete_published_posts',
  'delete_private_posts',
  'read_private_posts',
  'manage_categories',
  'upload_files',
  'list_users',
  'manage_options',
] as const;
export type Capability = (typeof CAPABILITIES)[number];

const ADMINISTRATOR_ONLY: readonly Capability[] = ['list_users', 'manage_options'];
const EDITOR = CAPABILITIES.filter((c) => !ADMINISTRATOR_ONLY.includes(c));

export const ROLE_CAPABILITIES: Record<Role, readonly Capability[]> = {
  administrator: CAPABILITIES,
  editor: EDITOR,
  author: [
    'read',
    'edit_posts',
    'edit_published_posts',
    'publish_posts',
    'delete_posts',
    'delete_published_posts',
    'upload_files',
  ],
  contributor: ['read', 'edit_posts', 'delete_posts'],
  subscriber: ['read'],
};

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

export function capabilitiesOf(role: Role): ReadonlySet<Capability> {
  return new Set(ROLE_CAPABILITIES[role]);
}
