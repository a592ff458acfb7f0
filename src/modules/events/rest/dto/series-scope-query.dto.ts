import { EnumField } from '../../../../common/validation/fields';
import { WRITE_SCOPES, type WriteScope } from '../../recurrence/write-scope';

/** `scope` of a write to an occurrence of a series (behaviour.md §11); ignored for a single event. */
export class SeriesScopeQueryDto {
  @EnumField({
    description: {
      en: 'For an occurrence of a series: `this` (the default) changes it alone, `following` it and the later ones (a new series from it), `all` every occurrence not edited on its own.',
      de: 'Für einen Termin einer Serie: `this` (Standard) ändert nur ihn, `following` ihn und die späteren (eine neue Serie ab ihm), `all` jeden nicht einzeln geänderten Termin.',
    },
    values: WRITE_SCOPES,
    default: 'this',
  })
  scope?: WriteScope;
}
