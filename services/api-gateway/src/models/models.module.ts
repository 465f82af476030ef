import { Module } from '@nestjs/common';
import { ModelsController } from './models.controller';
import { ModelsService } from './models.service';
import { OpenAiModelsService } from './openai-models.service';

/**
 * Model management: the models that answer texts, their prices and roles (live, fallback), usage
 * and cost impact, and the daily spending limit. ModelsService is exported for the simulator's
 * check of a test user's model.
 */
@Module({
  controllers: [ModelsController],
  providers: [ModelsService, OpenAiModelsService],
  exports: [ModelsService],
})
export class ModelsModule {}
