import { Injectable } from '@nestjs/common';
import { IMAGE_MESSAGES_LIMIT, type ImageMessageDto, type ImageStats } from '@sprout/contracts';
import { DataSource } from 'typeorm';

interface ImageMessageRow {
  id: string;
  phone_number: string;
  content: string;
  created_at: Date;
  image_processed: boolean | null;
  image_content_type: string | null;
  image_url: string | null;
  image_analysis: string | null;
  token_usage: number;
  cost: string | number;
  model_used: string | null;
  image_processing_error: string | null;
}

interface StatsRow {
  total: string;
  processed: string;
  failed: string;
  cost: string;
  tokens: string;
  avg_ms: string | null;
}

/** Reads of the Image monitoring screen: messages carrying media (partial index idx_messages_with_media_created_at). */
@Injectable()
export class ImagesQueryService {
  constructor(private readonly dataSource: DataSource) {}

  async recent(): Promise<ImageMessageDto[]> {
    const rows = await this.dataSource.query<ImageMessageRow[]>(
      `SELECT m.id, u.phone_number, m.content, m.created_at, m.image_processed, m.image_content_type,
              m.media->0->>'url' AS image_url, m.image_analysis, m.token_usage, m.cost, m.model_used,
              m.image_processing_error
         FROM messages m JOIN users u ON u.id = m.user_id
        WHERE m.media <> '[]'::jsonb
        ORDER BY m.created_at DESC, m.id DESC
        LIMIT $1`,
      [IMAGE_MESSAGES_LIMIT],
    );
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
    const [row] = await this.dataSource.query<StatsRow[]>(
      `SELECT count(*) AS total,
              count(*) FILTER (WHERE m.image_processed IS TRUE) AS processed,
              count(*) FILTER (WHERE m.image_processed IS FALSE) AS failed,
              coalesce(sum(m.cost), 0) AS cost,
              coalesce(sum(m.token_usage), 0) AS tokens,
              (SELECT avg(c.latency_ms)
                 FROM messages i JOIN llm_calls c ON c.message_id = i.id
                WHERE i.media <> '[]'::jsonb AND c.purpose = 'image' AND c.error IS NULL) AS avg_ms
         FROM messages m
        WHERE m.media <> '[]'::jsonb AND m.direction = 'inbound'`,
    );
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
