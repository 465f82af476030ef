import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { UsersController } from './users.controller';
import { UsersQueryService } from './users.service';
import { UsersExportService } from './users-export.service';

/** The admin Users screen: stat cards, the user list, its CSV export and one user's detail. */
@Module({
  imports: [AuthModule],
  controllers: [UsersController],
  providers: [UsersQueryService, UsersExportService],
})
export class UsersModule {}
