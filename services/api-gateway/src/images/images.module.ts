import { Module } from '@nestjs/common';
import { ImageTestsService } from './image-tests.service';
import { IMAGES_CONFIG, loadImagesConfig } from './images.config';
import { ImagesController } from './images.controller';
import { ImagesQueryService } from './images.service';

/** Image monitoring: recent image messages, their totals, the processing test and the validation suite. */
@Module({
  controllers: [ImagesController],
  providers: [
    { provide: IMAGES_CONFIG, useFactory: () => loadImagesConfig() },
    ImagesQueryService,
    ImageTestsService,
  ],
})
export class ImagesModule {}
