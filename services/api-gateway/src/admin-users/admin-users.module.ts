import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { AdminUsersController } from './admin-users.controller';
import { AdminUsersQueryService } from './admin-users.service';
import { UsersExportService } from './users-export.service';

/** The admin Users screen: stat cards, the user list, its CSV export and one user's detail. */
@Module({
  imports: [AuthModule],
  controllers: [AdminUsersController],
  providers: [AdminUsersQueryService, UsersExportService],
})
export class AdminUsersModule {}
