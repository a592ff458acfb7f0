import { describe, expect, it } from '@jest/globals';
import { capabilitiesOf, ROLE_CAPABILITIES, ROLES } from './roles';

describe('role capabilities', () => {
  it('gives every role read', () => {
    for (const role of ROLES) expect(capabilitiesOf(role).has('read')).toBe(true);
  });

  it('lets only editors and administrators manage terms and touch others’ posts', () => {
    const who = (cap: 'manage_categories' | 'edit_others_posts') => ROLES.filter((r) => capabilitiesOf(r).has(cap));
    expect(who('manage_categories')).toEqual(['administrator', 'editor']);
    expect(who('edit_others_posts')).toEqual(['administrator', 'editor']);
  });

  it('lets authors publish but not contributors or subscribers', () => {
    expect(ROLES.filter((r) => capabilitiesOf(r).has('publish_posts'))).toEqual(['administrator', 'editor', 'author']);
  });

  it('gives administrators a superset of editors', () => {
    for (const cap of ROLE_CAPABILITIES.editor) expect(ROLE_CAPABILITIES.administrator).toContain(cap);
  });
});
