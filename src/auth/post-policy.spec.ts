import { describe, expect, it } from '@jest/globals';
import type { PostStatus } from '../core/posts/post-status';
import { toAuthUser } from './auth-user';
import { postPolicy } from './post-policy';
import type { Role } from './roles';

const user = (role: Role, id = 1) => toAuthUser({ id, login: role, role });
const post = (status: PostStatus, authorId: number | null = 1, trashedFrom: PostStatus | null = null) => ({
  status,
  authorId,
  trashedFrom,
});
const OTHER = 2;

describe('postPolicy', () => {
  describe('contributor', () => {
    const me = user('contributor');
    it('creates but cannot publish', () => {
      expect(postPolicy.canCreate(me)).toBe(true);
      expect(postPolicy.canPublish(me)).toBe(false);
    });
    it('edits and deletes only its own drafts and pending posts', () => {
      expect(postPolicy.canEdit(me, post('draft'))).toBe(true);
      expect(postPolicy.canEdit(me, post('pending'))).toBe(true);
      expect(postPolicy.canEdit(me, post('publish'))).toBe(false);
      expect(postPolicy.canEdit(me, post('draft', OTHER))).toBe(false);
      expect(postPolicy.canDelete(me, post('draft'))).toBe(true);
      expect(postPolicy.canDelete(me, post('publish'))).toBe(false);
    });
    it('cannot edit or delete its own post once published, even from the trash', () => {
      expect(postPolicy.canEdit(me, post('trash', 1, 'publish'))).toBe(false);
      expect(postPolicy.canDelete(me, post('trash', 1, 'future'))).toBe(false);
      expect(postPolicy.canEdit(me, post('trash', 1, 'draft'))).toBe(true);
      expect(postPolicy.canEdit(me, post('trash', 1, 'pending'))).toBe(true);
    });
    it('reads its own drafts but not others’', () => {
      expect(postPolicy.canReadNonPublic(me, post('draft'))).toBe(true);
      expect(postPolicy.canReadNonPublic(me, post('draft', OTHER))).toBe(false);
    });
  });

  describe('author', () => {
    const me = user('author');
    it('edits and deletes its own posts, published too, but not others’', () => {
      expect(postPolicy.canPublish(me)).toBe(true);
      expect(postPolicy.canEdit(me, post('publish'))).toBe(true);
      expect(postPolicy.canEdit(me, post('future'))).toBe(true);
      expect(postPolicy.canDelete(me, post('publish'))).toBe(true);
      expect(postPolicy.canEdit(me, post('publish', OTHER))).toBe(false);
      expect(postPolicy.canDelete(me, post('draft', OTHER))).toBe(false);
      expect(postPolicy.canForceDelete(me)).toBe(false);
      expect(postPolicy.seesAllStatuses(me)).toBe(false);
    });
    it('keeps editing and trashing its own post after making it private', () => {
      expect(postPolicy.canEdit(me, post('private'))).toBe(true);
      expect(postPolicy.canDelete(me, post('private'))).toBe(true);
      expect(postPolicy.canReadNonPublic(me, post('private'))).toBe(true);
      expect(postPolicy.canEdit(me, post('private', OTHER))).toBe(false);
      expect(postPolicy.canEdit(me, post('trash', 1, 'private'))).toBe(true);
      expect(postPolicy.canEdit(me, post('trash', 1, 'publish'))).toBe(true);
    });
  });

  describe('editor and administrator', () => {
    it.each(['editor', 'administrator'] as const)('%s may do anything to anyone’s posts', (role) => {
      const me = user(role);
      for (const status of ['draft', 'pending', 'publish', 'private', 'future'] as const) {
        expect(postPolicy.canEdit(me, post(status, OTHER))).toBe(true);
        expect(postPolicy.canDelete(me, post(status, OTHER))).toBe(true);
        expect(postPolicy.canReadNonPublic(me, post(status, OTHER))).toBe(true);
      }
      expect(postPolicy.canForceDelete(me)).toBe(true);
      expect(postPolicy.canManageTerms(me)).toBe(true);
      expect(postPolicy.seesAllStatuses(me)).toBe(true);
    });
  });

  describe('subscriber and anonymous', () => {
    it('may only read public records', () => {
      for (const me of [user('subscriber'), null]) {
        expect(postPolicy.canCreate(me)).toBe(false);
        expect(postPolicy.canEdit(me, post('draft'))).toBe(false);
        expect(postPolicy.canReadNonPublic(me, post('draft'))).toBe(false);
        expect(postPolicy.canManageTerms(me)).toBe(false);
      }
    });
  });

  it('lets nobody but editors touch a post without an author', () => {
    expect(postPolicy.canEdit(user('author'), post('draft', null))).toBe(false);
    expect(postPolicy.canEdit(user('editor'), post('draft', null))).toBe(true);
  });
});
