import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { SiteTime } from '../../common/dates/site-time';
import { AppConfig } from '../../config/app-config';
import { WriteTransactions } from '../../database/write-transactions';
import { postFieldsInput } from '../../core/posts/dto/post-fields.dto';
import { AttachmentsService } from '../../core/posts/attachments/attachments.service';
import { LinkedPostTypeService, type LinkedPostTypeSpec } from '../events/linked/linked-post-type.service';
import { PostRecordsService } from '../../core/posts/post-records.service';
import { CreateOrganizerDto } from './dto/create-organizer.dto';
import type { UpdateOrganizerDto } from './dto/update-organizer.dto';
import type { EventOrganizerEntity } from './event-organizer.entity';
import { OrganizerDetailsEntity } from './organizer-details.entity';
import { toOrganizerObject, toPersonJsonLd, type OrganizerObject } from './organizer.mapper';
import { ORGANIZER_POST_TYPE, ORGANIZERS_REST_BASE } from './organizer.post-type';
import { OrganizersRepository } from './organizers.repository';

const TEXT_FIELDS = ['phone', 'website', 'email'] as const;

const ORGANIZER_SPEC: LinkedPostTypeSpec<OrganizerDetailsEntity, OrganizerObject, UpdateOrganizerDto> = {
  def: ORGANIZER_POST_TYPE,
  restBase: ORGANIZERS_REST_BASE,
  createDto: CreateOrganizerDto,
  nameOf: (dto) => dto.organizer,
  postInput: postFieldsInput,
  newDetails: (postId) => Object.assign(new OrganizerDetailsEntity(), { postId, phone: '', website: '', email: '' }),
  applyDetails: (details, dto) => {
    for (const field of TEXT_FIELDS) {
      const value = dto[field];
      if (value !== undefined) details[field] = value.trim();
    }
  },
  toObject: toOrganizerObject,
  jsonLd: toPersonJsonLd,
};

/** Organizers (behaviour.md §8): the linked post type service with organizer fields. */
@Injectable()
export class OrganizersService extends LinkedPostTypeService<
  OrganizerDetailsEntity,
  EventOrganizerEntity,
  OrganizerObject,
  UpdateOrganizerDto,
  CreateOrganizerDto
> {
  constructor(
    dataSource: DataSource,
    transactions: WriteTransactions,
    repository: OrganizersRepository,
    records: PostRecordsService,
    attachments: AttachmentsService,
    siteTime: SiteTime,
    config: AppConfig,
  ) {
    super({ dataSource, transactions, records, attachments, siteTime, config }, repository, ORGANIZER_SPEC);
  }
}
