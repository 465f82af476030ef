import { Module } from '@nestjs/common';
import { ImageAnalysisProcessor } from './image-analysis.processor';
import { ImageAnalysisService } from './image-analysis.service';
import { ImageSource } from './image-source';
import { visionModelProvider } from './vision-model';

/** MMS photos: fetched safely, described by the vision model (or the offline analyser), recorded on the message (queue image.analyze). */
@Module({
  providers: [ImageSource, visionModelProvider, ImageAnalysisService, ImageAnalysisProcessor],
  exports: [ImageAnalysisService],
})
export class ImageAnalysisModule {}
