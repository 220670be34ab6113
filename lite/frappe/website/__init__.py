"""The website: www pages, route rules, page renderers, assets and files."""
