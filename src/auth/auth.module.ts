import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AdminBootstrap } from './admin-bootstrap';
import { ApplicationPasswordEntity } from './application-password.entity';
import { ApplicationPasswordsService } from './application-passwords.service';
import { BasicAuthMiddleware } from './basic-auth.middleware';
import { CredentialCache } from './credential-cache';
import { LoginThrottle } from './login-throttle';
import { UserEntity } from './user.entity';
import { UsersService } from './users.service';

/**
 * Users, roles, application passwords and HTTP Basic authentication. Global: authentication runs before every
 * route of every module, and post policies and the CLI read users.
 */
@Global()
@Module({
  imports: [TypeOrmModule.forFeature([UserEntity, ApplicationPasswordEntity])],
  providers: [
    UsersService,
    ApplicationPasswordsService,
    CredentialCache,
    LoginThrottle,
    BasicAuthMiddleware,
    AdminBootstrap,
  ],
  exports: [UsersService, ApplicationPasswordsService, BasicAuthMiddleware, AdminBootstrap, LoginThrottle],
})
export class AuthModule {}
