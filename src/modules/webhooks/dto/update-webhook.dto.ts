import { PartialUpdate } from '../../../common/validation/partial-update';
import { EnumField } from '../../../common/validation/fields';
import { CreateWebhookDto } from './create-webhook.dto';

/** `POST/PUT/PATCH /webhooks/{id}`: any field; `status: active` re-enables a disabled endpoint. */
export class UpdateWebhookDto extends PartialUpdate(CreateWebhookDto) {
  @EnumField({
    description: {
      en: 'active or disabled; re-enabling resumes its pending deliveries.',
      de: 'active oder disabled; Wiederaktivieren setzt ausstehende Zustellungen fort.',
    },
    values: ['active', 'disabled'],
  })
  status?: 'active' | 'disabled';
}
