import { Injectable } from '@nestjs/common';
import { IMAGE_MESSAGES_LIMIT, type ImageMessageDto, type ImageStats } from '@sprout/contracts';
import { imageStats, recentImageMessages } from '@sprout/domain';
import { DataSource } from 'typeorm';

/** Reads of the Image monitoring screen: messages carrying media. */
@Injectable()
export class ImagesQueryService {
  constructor(private readonly dataSource: DataSource) {}

  async recent(): Promise<ImageMessageDto[]> {
    const rows = await recentImageMessages(this.dataSource, IMAGE_MESSAGES_LIMIT);
    return rows.map((row) => ({
      id: row.id,
      user: { phoneNumber: row.phone_number },
      content: row.content,
      createdAt: row.created_at.toISOString(),
      imageProcessed: row.image_processed,
      imageContentType: row.image_content_type,
      imageUrl: row.image_url,
      imageAnalysis: row.image_analysis,
      tokenUsage: row.token_usage,
      cost: Number(row.cost),
      modelUsed: row.model_used,
      imageProcessingError: row.image_processing_error,
    }));
  }

  /** Failed: settled without an analysis. Processing time: the recorded latency of successful image calls. */
  async stats(): Promise<ImageStats> {
    const row = await imageStats(this.dataSource);
    return {
      totalImages: Number(row?.total ?? 0),
      processedImages: Number(row?.processed ?? 0),
      failedImages: Number(row?.failed ?? 0),
      totalCost: Math.round(Number(row?.cost ?? 0) * 1e6) / 1e6,
      totalTokens: Number(row?.tokens ?? 0),
      avgProcessingTime: Math.round(Number(row?.avg_ms ?? 0)),
    };
  }
}
