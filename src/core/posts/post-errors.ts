import { DomainError } from '../../common/errors/domain-error';
import type { PostTypeDefinition } from './post-type.registry';

/** The per-type errors of behaviour.md §2, coded from the type's noun and worded with its label. */
export const postErrors = {
  notFound: (def: PostTypeDefinition) =>
    new DomainError('post_not_found', { noun: def.noun, args: { label: def.label } }),
  notAccessible: (def: PostTypeDefinition) =>
    new DomainError('post_not_accessible', { noun: def.noun, args: { label: def.label } }),
  archivePageNotFound: (def: PostTypeDefinition) =>
    new DomainError('post_archive_page_not_found', { noun: def.noun, args: { label: def.label } }),
  inTrash: (def: PostTypeDefinition) =>
    new DomainError('post_in_trash', { noun: def.noun, args: { label: def.label } }),
};
