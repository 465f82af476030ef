import { Module } from '@nestjs/common';
import { ImageTestsService } from './image-tests.service';
import { imagesConfig } from './images.config';
import { ImagesController } from './images.controller';
import { ImagesQueryService } from './images.service';

/** Image monitoring: recent image messages, their totals, the processing test and the validation suite. */
@Module({
  controllers: [ImagesController],
  providers: [imagesConfig.provider, ImagesQueryService, ImageTestsService],
})
export class ImagesModule {}
