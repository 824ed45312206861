enum SignalsModule {}
