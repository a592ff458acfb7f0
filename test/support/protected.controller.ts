import { Body, Controller, Get, Post } from '@nestjs/common';
import { RequiresCapability } from '../../src/auth/requires-capability.decorator';
import { Ctx, type RequestContext } from '../../src/common/http/request-context';
import { IntegerField } from '../../src/common/validation/fields';

class ProtectedDto {
  @IntegerField({ description: { en: 'n', de: 'n' }, required: true })
  n!: number;
}

/** Routes that need a capability; only mounted in tests of authentication and permissions. */
@Controller('cal/events/v1/test-protected')
export class ProtectedController {
  @Get('whoami')
  whoami(@Ctx() ctx: RequestContext): { login: string | null } {
    return { login: ctx.user?.login ?? null };
  }

  @Post('posts')
  @RequiresCapability('edit_posts', 'event')
  writePost(@Body() body: ProtectedDto, @Ctx() ctx: RequestContext): { n: number; by: string | undefined } {
    return { n: body.n, by: ctx.user?.login };
  }

  @Post('terms')
  @RequiresCapability('manage_categories', 'term')
  writeTerm(@Body() body: ProtectedDto, @Ctx() _ctx: RequestContext): { n: number } {
    return { n: body.n };
  }
}
