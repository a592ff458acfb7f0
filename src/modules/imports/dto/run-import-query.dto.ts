import { BooleanField } from '../../../common/validation/fields';

/** `POST /imports/{id}/run`: answer at once (202, the run as started) or when the run has ended. */
export class RunImportQueryDto {
  @BooleanField({
    description: {
      en: 'Answer when the run has ended (200, the finished run) rather than at once (202, the run as started, its URL in Location). A proxy in front may end a long wait first; the run goes on either way.',
      de: 'Erst antworten, wenn der Lauf beendet ist (200, der beendete Lauf), statt sofort (202, der Lauf wie begonnen, seine URL in Location). Ein vorgeschalteter Proxy kann ein langes Warten vorher beenden; der Lauf geht in jedem Fall weiter.',
    },
    default: false,
  })
  wait?: boolean;
}
