enum JournalModule {}
