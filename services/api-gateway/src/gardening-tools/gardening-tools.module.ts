import { Module } from '@nestjs/common';
import { GardeningToolsController } from './gardening-tools.controller';
import { GardeningToolsService } from './gardening-tools.service';

/** The location test (public) and the message validation and input processing testers (admin). */
@Module({
  controllers: [GardeningToolsController],
  providers: [GardeningToolsService],
})
export class GardeningToolsModule {}
