import { Module } from '@nestjs/common';
import { AdminUsersController } from './admin-users.controller';
import { AdminUsersQueryService } from './admin-users.service';

/** The admin Users screen: stat cards, the user list and one user's detail. */
@Module({
  controllers: [AdminUsersController],
  providers: [AdminUsersQueryService],
})
export class AdminUsersModule {}
