"""Inbound channels: Telegram and Slack messages run the settings' agent; ElevenLabs ConvAI transcripts."""
