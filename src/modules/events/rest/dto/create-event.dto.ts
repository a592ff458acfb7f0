import type { Type } from '@nestjs/common';
import { PostFieldsDto } from '../../../../core/posts/dto/post-fields.dto';
import { applyWriteRules } from '../../fields/built-in-fields';
import type { EventWriteInput } from '../../fields/event-write-types';

/**
 * Contract §2.1, with behaviour.md §6's `password` and `post_parent`: the post's shared fields, and the event's
 * own (`EventWriteFields`) with the rules their catalogue entries declare (`fields/built-in/`).
 */
export class CreateEventDto extends (PostFieldsDto as Type<EventWriteInput>) {}
applyWriteRules(CreateEventDto);
