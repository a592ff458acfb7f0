import { BooleanField } from '../../../common/validation/fields';

export class DeletePostQueryDto {
  @BooleanField({
    description: {
      en: 'Delete permanently instead of moving to the trash (editors and administrators).',
      de: 'Endgültig löschen statt in den Papierkorb zu verschieben (Redakteure und Administratoren).',
    },
    default: false,
  })
  force?: boolean;
}
