import { applyDecorators, Type } from '@nestjs/common';
import { ApiBody, ApiExtraModels, ApiProperty, ApiQuery, ApiResponse, getSchemaPath } from '@nestjs/swagger';

// Metadata keys @ApiProperty writes; the package does not export its constants module.
const MODEL_PROPERTIES_ARRAY = 'swagger/apiModelPropertiesArray';
const MODEL_PROPERTIES = 'swagger/apiModelProperties';

export class BaseResponseDoc {
  @ApiProperty({ description: 'true on success, false on error.' })
  status: boolean;

  @ApiProperty({ description: 'Equals the HTTP status of the response.', example: 200 })
  code: number;

  @ApiProperty({ description: 'Build id: git commit, else package version.', example: '3f2a9c1b7d0e' })
  version: string;
}

class ErrorDetailDoc {
  @ApiProperty({ example: 'password' })
  field: string;

  @ApiProperty({ example: 'password must be 8 to 128 characters' })
  message: string;

  @ApiProperty({ description: 'The same in Japanese, for players.', example: 'パスワードは8〜128文字で入力してください。' })
  message_ja: string;
}

export class ErrorResponseDoc extends BaseResponseDoc {
  @ApiProperty({
    enum: [
      'invalid_request',
      'captcha_failed',
      'unauthorized',
      'forbidden',
      'not_found',
      'method_not_allowed',
      'conflict',
      'payload_too_large',
      'rate_limited',
      'internal_error',
      'service_unavailable',
    ],
  })
  error: string;

  @ApiProperty({ description: 'English sentence describing the error.' })
  message: string;

  @ApiProperty({ description: 'The same in natural Japanese, written for players (the club site shows it when present).', example: 'パスワードは8〜128文字で入力してください。' })
  message_ja: string;

  @ApiProperty({ type: [ErrorDetailDoc], required: false, description: 'One entry per offending parameter (validation errors).' })
  details?: ErrorDetailDoc[];
}

/** Documents the success envelope: base response fields plus the endpoint's own fields (a DTO class). */
export function ApiEnvelope(status: number, description: string, fields?: Type<unknown>): MethodDecorator {
  const schema = fields
    ? { allOf: [{ $ref: getSchemaPath(BaseResponseDoc) }, { $ref: getSchemaPath(fields) }] }
    : { $ref: getSchemaPath(BaseResponseDoc) };
  return applyDecorators(ApiExtraModels(BaseResponseDoc, ...(fields ? [fields] : [])), ApiResponse({ status, description, schema }));
}

/** Documents error responses in the error envelope. */
export function ApiErrors(...entries: Array<[number, string]>): MethodDecorator {
  return applyDecorators(
    ApiExtraModels(ErrorResponseDoc),
    ...entries.map(([status, description]) => ApiResponse({ status, description, schema: { $ref: getSchemaPath(ErrorResponseDoc) } })),
  );
}

/**
 * Documents a DTO's fields as query parameters (GET/DELETE) or as the body (POST/PATCH, which
 * also read the query string). Handlers read them with @Input(), which the generator cannot see.
 */
export function ApiInput(dto: Type<unknown>, location: 'query' | 'body'): MethodDecorator {
  if (location === 'body') {
    return ApiBody({ type: dto });
  }
  const names = (Reflect.getMetadata(MODEL_PROPERTIES_ARRAY, dto.prototype as object) as string[] | undefined) ?? [];
  return applyDecorators(
    ...names.map((entry) => {
      const name = entry.replace(/^:/, '');
      const meta = (Reflect.getMetadata(MODEL_PROPERTIES, dto.prototype as object, name) ?? {}) as {
        description?: string;
        required?: boolean;
        example?: unknown;
        type?: unknown;
      };
      return ApiQuery({ name, required: meta.required !== false, description: meta.description, example: meta.example, type: String });
    }),
  );
}
