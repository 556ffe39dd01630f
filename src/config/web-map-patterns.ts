/** The shapes of the WEB_MAP_* settings (docs/web-map.md), here so that the configuration imports no feature. */

/**
 * `rrggbb` or `rrggbbaa` (alpha last, as CSS writes it), with or without a leading `#`: in a
 * `.env` file an unquoted value is cut at `#`, so the files show the colours without it.
 */
export const HEX_COLOR_PATTERN = /^#?[0-9a-fA-F]{6}([0-9a-fA-F]{2})?$/;

/** An http(s) address with `{id}` and/or `{name}` in it; no spaces, quotes or angle brackets (it goes into HTML). */
export const CITY_URL_TEMPLATE_PATTERN = /^https?:\/\/[^\s"'<>`\\]+$/;
