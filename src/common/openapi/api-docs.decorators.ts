import { applyDecorators, Type } from '@nestjs/common';
import { ApiBody, ApiExtraModels, ApiParam, ApiProperty, ApiQuery, ApiResponse, DECORATORS, getSchemaPath, OmitType, type SchemaObject } from '@nestjs/swagger';
import { getMetadataStorage } from 'class-validator';
import { ERROR_CODES } from '../errors/api-error';

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
  @ApiProperty({ enum: [...ERROR_CODES] })
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

interface PropertyMeta {
  description?: string;
  required?: boolean;
  example?: unknown;
  enum?: string[];
}

function propertyNames(dto: Type<unknown>): string[] {
  return ((Reflect.getMetadata(DECORATORS.API_MODEL_PROPERTIES_ARRAY, dto.prototype as object) as string[] | undefined) ?? []).map((entry) => entry.replace(/^:/, ''));
}

function propertyMeta(dto: Type<unknown>, name: string): PropertyMeta {
  return (Reflect.getMetadata(DECORATORS.API_MODEL_PROPERTIES, dto.prototype as object, name) ?? {}) as PropertyMeta;
}

/** Examples of query and path parameters are strings: that is how they travel. */
function asText(example: unknown): string | undefined {
  return typeof example === 'string' || typeof example === 'number' || typeof example === 'boolean' ? String(example) : undefined;
}

const bodyTypes = new Map<string, Type<unknown>>();

/** The DTO without its path variables, under the DTO's name: the body schema a client sends. */
function bodyTypeOf(dto: Type<unknown>, path: readonly string[]): Type<unknown> {
  if (path.length === 0) {
    return dto;
  }
  const cacheKey = `${dto.name}:${[...path].sort().join(',')}`;
  let type = bodyTypes.get(cacheKey);
  if (!type) {
    type = OmitType(dto, path as never[]);
    const taken = [...bodyTypes.values()].some((other) => other.name === dto.name);
    Object.defineProperty(type, 'name', { value: taken ? `${dto.name}Without${path.map((name) => name[0].toUpperCase() + name.slice(1)).join('')}` : dto.name });
    bodyTypes.set(cacheKey, type);
  }
  return type;
}

/** The decorator's regular expression as an OpenAPI `pattern` (ECMA-262 syntax, no flags). */
function patternOf(value: unknown): string | undefined {
  return value instanceof RegExp && value.flags.replace(/[gy]/g, '') === '' ? value.source : undefined;
}

/**
 * A path parameter's schema from the DTO field's validation rules, so that a generated client
 * types it as the server checks it: `@Matches` gives the pattern, `@IsInt`/`@Min`/`@Max` an
 * integer with its bounds, `@IsIn` the values.
 */
export function pathParamSchema(dto: Type<unknown>, name: string): SchemaObject {
  const schema: SchemaObject = { type: 'string' };
  for (const rule of getMetadataStorage().getTargetValidationMetadatas(dto, '', true, false)) {
    if (rule.propertyName !== name) {
      continue;
    }
    const [first] = (rule.constraints ?? []) as unknown[];
    if (rule.name === 'matches' && patternOf(first)) {
      schema.pattern = patternOf(first);
    } else if (rule.name === 'isInt') {
      schema.type = 'integer';
    } else if (rule.name === 'min' && typeof first === 'number') {
      schema.minimum = first;
    } else if (rule.name === 'max' && typeof first === 'number') {
      schema.maximum = first;
    } else if (rule.name === 'isIn' && Array.isArray(first)) {
      schema.enum = first;
    } else if (rule.name === 'maxLength' && typeof first === 'number') {
      schema.maxLength = first;
    }
  }
  return schema;
}

/**
 * A required path parameter typed by `schema`, or by the validation rules of `dto`'s field of the
 * same name (`pathParamSchema`). Untyped path parameters reach generated clients as `unknown`.
 */
export function ApiPathParam(name: string, typed: Type<unknown> | SchemaObject, description?: string): MethodDecorator {
  const schema = typeof typed === 'function' ? pathParamSchema(typed, name) : typed;
  const meta = typeof typed === 'function' ? propertyMeta(typed, name) : {};
  return ApiParam({ name, required: true, description: description ?? meta.description, example: asText(meta.example), schema });
}

/**
 * Documents a route's input: the DTO's fields as query parameters (GET/DELETE) or as the body
 * (POST/PATCH/PUT, which also read the query string), and the route's path variables (`path`,
 * the names in the route's `:name` segments) as required path parameters, taken out of the query
 * list and the body schema. Handlers read everything with @Input(), which the generator cannot see.
 *
 *   @Patch('edit/:id') @ApiInput(EditCityDto, 'body', { path: ['id'] })
 *
 * The OpenAPI e2e test lints the served document with Redocly: a path variable left out here fails it.
 */
export function ApiInput(dto: Type<unknown>, location: 'query' | 'body', options: { path?: readonly string[] } = {}): MethodDecorator {
  const path = options.path ?? [];
  const names = propertyNames(dto);
  const pathParams = path.map((name) => ApiPathParam(name, dto));
  if (location === 'body') {
    const hasBody = names.some((name) => !path.includes(name));
    return applyDecorators(...pathParams, ...(hasBody ? [ApiBody({ type: bodyTypeOf(dto, path) })] : []));
  }
  return applyDecorators(
    ...pathParams,
    ...names
      .filter((name) => !path.includes(name))
      .map((name) => {
        const meta = propertyMeta(dto, name);
        return ApiQuery({
          name,
          required: meta.required !== false,
          description: meta.description,
          example: asText(meta.example),
          type: String,
          ...(meta.enum ? { enum: meta.enum } : {}),
        });
      }),
  );
}
