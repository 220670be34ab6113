"""Page renderers: classes with `can_render()` and `render()` that answer a website route."""
