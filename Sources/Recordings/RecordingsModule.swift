enum RecordingsModule {}
